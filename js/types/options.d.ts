/** What a value is, for a message. */
export function describe(v: any): string;
/**
 * `options` (undefined or null: none) checked against `schema` ({ name: type }, the types
 * above) for the function `what`: returns the options object, or throws a TypeError naming the
 * unknown option (and the one it is most likely a misspelling of) or the option of the wrong
 * type. Options set to undefined count as absent. Symbol keys (internal) are not looked at.
 */
export function optionsOf(options: any, schema: any, what: any): any;
