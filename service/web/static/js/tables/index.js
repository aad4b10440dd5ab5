// Each game's table module, by the game's name: its `describe(event, names, options)`, `headline(view, names)`
// and `drawTable(view, legal, context)`.

import * as bahama_taxi from "./bahama_taxi.js";
import * as djambi from "./djambi.js";
import * as taki from "./taki.js";

export const TABLES = { taki, djambi, bahama_taxi };
