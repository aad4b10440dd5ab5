// A bot on openapi-fetch and the types openapi-typescript makes of the served spec (schema.d.ts,
// generated beside this file by the test): `node bot.js <base URL> <setup>` plays the setup's
// game to its end, each of its seats sending one of its legal commands at random; prints the game's id.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type CreateGame = components["schemas"]["CreateGame"];

const MOVE_CAP = 1000; // tests/clients/conftest.py: MOVE_CAP

// the game as the bot creates it, and the seats it plays (the others are the server's AI); random TAKI
// players who forget "last card!" draw penalties and may play on for thousands of moves, so it is off
const SETUPS: Record<string, [CreateGame, number[]]> = {
  taki: [{ game: "taki", seats: 2, options: { draw_requires_no_legal_play: true, last_card_rule: "off" } }, [0, 1]],
  "djambi-4": [
    { game: "djambi", seats: 4, options: { no_progress_limit: 50 }, bots: [{ seat: 1, level: "random" }, { seat: 3, level: "random" }] },
    [0, 2],
  ],
  "djambi-3": [{ game: "djambi", seats: 3, options: { no_progress_limit: 50 }, bots: [{ seat: 2, level: "random" }] }, [0, 1]],
  "bahama-taxi": [
    { game: "bahama_taxi", seats: 2, options: { cabs_per_player: 2, dice: true, max_rounds: 20 }, bots: [{ seat: 1, level: "random" }] },
    [0],
  ],
};

function answered<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${answer.response.status} ${answer.response.url}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

async function play(base: string, name: string): Promise<string> {
  const setup = SETUPS[name];
  if (setup === undefined) throw new Error(`no setup ${name}`);
  const [body, held] = setup;
  const api = createClient<paths>({ baseUrl: base });
  const { id } = answered(await api.POST("/v1/games", { body }));
  const path = { game_id: id };
  const tokens = new Map<number, string>();
  for (const seat of held) {
    const { token } = answered(await api.POST("/v1/games/{game_id}/join", { params: { path }, body: { name: `bot ${seat}`, seat } }));
    if (token === null) throw new Error(`seat ${seat} came without a token`);
    tokens.set(seat, token);
  }
  let moves = 0;
  for (;;) {
    const game = answered(await api.GET("/v1/games/{game_id}", { params: { path } }));
    if (game.status !== "active") {
      if (game.status !== "finished") throw new Error(`${name} ${id} is ${game.status}`);
      return id;
    }
    if (moves >= MOVE_CAP) throw new Error(`${name} ${id} is still going after ${moves} moves`);
    const ours = game.to_move.filter((seat) => tokens.has(seat));
    if (ours.length === 0) await new Promise((resolve) => setTimeout(resolve, 20)); // the server's AI is moving
    for (const seat of ours) {
      const headers = { Authorization: `Bearer ${tokens.get(seat)}` };
      const legal = answered(await api.GET("/v1/games/{game_id}/legal-commands", { params: { path, query: { form: "list" } }, headers }));
      if (!("commands" in legal)) throw new Error("a list was asked for");
      const command = legal.commands[Math.floor(Math.random() * legal.commands.length)];
      if (command === undefined) continue;
      answered(await api.POST("/v1/games/{game_id}/commands", { params: { path }, body: command, headers }));
      moves += 1;
    }
  }
}

const [base, name] = process.argv.slice(2);
if (base === undefined || name === undefined) throw new Error("usage: node bot.js <base URL> <setup>");
console.log(await play(base, name));
