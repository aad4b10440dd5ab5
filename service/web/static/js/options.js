// A game's options (its variants, as GET /v1/games/types lists them): the fields that set them in the
// forms that create a game or a tournament, and the house rules a game or a tournament is played by.

import { h } from "./dom.js";
import { field, number, numeric } from "./forms.js";
import { rulesAddress } from "./games.js";

const words = (name) => name.replace(/_/g, " ").replace(/^./, (first) => first.toUpperCase());

/** A seat option (`first_seat`) as people count seats, from 1; the API's seats count from 0. */
const seatOption = (option) => option.kind === "integer" && option.name.endsWith("_seat");
const counted = (option, value) => (seatOption(option) ? value + 1 : value);

function optionControl(option) {
  if (option.kind === "boolean") return h("input", { type: "checkbox", checked: option.default === true });
  if (option.kind === "choice") {
    return h("select", {}, option.values.map((value) => h("option", { value, selected: value === option.default }, value)));
  }
  return number(counted(option, option.default), counted(option, option.minimum), counted(option, option.maximum));
}

/** An option's hint, each section it cites ("§11.8") a link to that section of the game's rules page. */
function optionHint(game, option) {
  const range = option.kind === "integer" ? ` (${counted(option, option.minimum)} to ${counted(option, option.maximum)})` : "";
  const text = `${option.description}${range}; default ${counted(option, option.default)}.`;
  return text.split(/(§\d+(?:\.\d+)*)/).map((part, cited) => (cited % 2 ? h("a", { href: rulesAddress(game, part) }, part) : part));
}

/** A field for each option of game `type`, at its default; `read(chosen)` puts each one set into `chosen`. */
export function optionFields(type) {
  const options = type.options.map((option) => ({ option, control: optionControl(option) }));
  return {
    element: h("details", { class: "group rules" },
      h("summary", {}, `${type.title} rules: ${type.options.length} options, each at its default until changed`),
      h("p", {}, h("a", { href: rulesAddress(type.name), class: "rules-link" }, `The rules of ${type.title}`)),
      options.map(({ option, control }) => field(`options.${option.name}`, words(option.name), control, optionHint(type.name, option)))),
    read(chosen) {
      for (const { option, control } of options) {
        const value = option.kind === "boolean" ? control.checked : option.kind === "integer" ? numeric(control) : control.value;
        if (value !== undefined) chosen[option.name] = seatOption(option) && typeof value === "number" ? value - 1 : value;
      }
    },
  };
}

const optionWords = (option, value) => (value === true ? "yes" : value === false ? "no" : String(counted(option, value)).replace(/_/g, " "));

/** The options of `played` (a game or a tournament: its `game` and `options`, those left out at their
 * defaults) that differ from the standard game's, in the words the server lists its options with. */
export function houseRules(played, types) {
  const options = types.find((type) => type.name === played.game)?.options || [];
  const changed = options.filter((option) => option.name in played.options
    && JSON.stringify(played.options[option.name]) !== JSON.stringify(option.default));
  if (!changed.length) return h("p", { class: "house-rules" }, "Standard rules.");
  return h("details", { class: "house-rules" },
    h("summary", {}, `House rules: ${changed.length} ${changed.length === 1 ? "option differs" : "options differ"} from the standard game`),
    h("ul", {}, changed.map((option) => h("li", { dataset: { option: option.name } },
      `${option.description}: `, h("strong", {}, optionWords(option, played.options[option.name]))))));
}
