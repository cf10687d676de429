// options.js: the options objects of df64gl's public functions, refused where they name an
// option the function does not have (a misspelt one would otherwise be ignored and the default
// run in its place) or give one a value of the wrong type.

// What each type accepts, and how to say it.
const TYPES = {
  number: [function (v) { return typeof v === 'number'; }, 'a number'],
  string: [function (v) { return typeof v === 'string'; }, 'a string'],
  boolean: [function (v) { return typeof v === 'boolean'; }, 'true or false'],
  array: [Array.isArray, 'an array'],
  storage: [function (v) {
    return v === null || (typeof v === 'object' && typeof v.getItem === 'function' && typeof v.setItem === 'function');
  }, 'null or an object with getItem and setItem (localStorage, say)'],
};

/** What a value is, for a message. */
export function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return 'the string ' + JSON.stringify(v.length > 40 ? v.slice(0, 40) + '...' : v);
  if (typeof v === 'object') return 'a ' + (v.constructor && v.constructor.name ? v.constructor.name : 'object');
  return typeof v === 'number' ? String(v) : typeof v;
}

// Edits (insertions, deletions, substitutions, transpositions) between two short names.
function distance(a, b) {
  const d = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        d[i].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2][j - 2] + 1);
      d[i].push(v);
    }
  }
  return d[a.length][b.length];
}

/**
 * `options` (undefined or null: none) checked against `schema` ({ name: type }, the types
 * above) for the function `what`: returns the options object, or throws a TypeError naming the
 * unknown option (and the one it is most likely a misspelling of) or the option of the wrong
 * type. Options set to undefined count as absent. Symbol keys (internal) are not looked at.
 */
export function optionsOf(options, schema, what) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError('df64gl: ' + what + ' takes its options as an object ({ name: value, ... }), not ' + describe(options));
  }
  const names = Object.keys(schema);
  Object.keys(options).forEach(function (name) {
    if (!Object.prototype.hasOwnProperty.call(schema, name)) {
      const near = names.filter(function (n) { return distance(n.toLowerCase(), name.toLowerCase()) <= 2; });
      throw new TypeError('df64gl: ' + what + ' has no option ' + JSON.stringify(name) +
        (near.length ? ' (did you mean ' + near.map(function (n) { return JSON.stringify(n); }).join(' or ') + '?)' : '') +
        '; its options are ' + names.join(', '));
    }
    const v = options[name];
    const type = TYPES[schema[name]];
    if (v !== undefined && !type[0](v)) {
      throw new TypeError('df64gl: ' + what + "'s option " + name + ' takes ' + type[1] + ', not ' + describe(v));
    }
  });
  return options;
}
