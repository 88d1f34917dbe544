// The cases the unit tests run on: the committed few (fixtures/cases.json), and, when the
// pytest hook sets GAMMON_JS_CASES (tests/server/test_js_units.py), random games of every
// variant made by the rules library just now.
import { readFileSync } from "node:fs";

export const small = JSON.parse(readFileSync(new URL("./fixtures/cases.json", import.meta.url), "utf8"));

const path = process.env.GAMMON_JS_CASES;
/** @type {{cases: any[], games: any[], starts: Record<string, any>} | null} */
export const many = path ? JSON.parse(readFileSync(path, "utf8")) : null;

export const client = (name) => new URL(`../../gammon/server/static/js/${name}`, import.meta.url).href;
