// GLSL read as the check needs it: the top-level functions of a library and what each calls,
// the library cut to what a program reaches, and the size of code with every call inlined.

// The top-level functions of GLSL source (brace depth, comments and preprocessor lines skipped
// at the top level), as pieces: {name, text} for a function (its comment and header with it),
// {name: null, text} for everything else (declarations, constants, preprocessor lines); and per
// function name the names it calls and its inlined size. Null where the braces do not balance
// (a source this scan cannot split is compiled whole). The last few sources' indexes are kept:
// a check slices the df64 library, the library with the probe's functions and the qf128 one in
// turn, and indexing one anew takes milliseconds each time.
const indexes = new Map();
const KEPT_INDEXES = 4;

export function functionIndex(source) {
  if (indexes.has(source)) return indexes.get(source);
  const index = indexOf(source);
  if (indexes.size >= KEPT_INDEXES) indexes.delete(indexes.keys().next().value);
  indexes.set(source, index);
  return index;
}

function indexOf(source) {
  const pieces = [];
  const n = source.length;
  let depth = 0;
  let i = 0;
  let from = 0;
  let open = -1;
  const cut = function (to, name) {
    if (to > from) pieces.push({ name: name, text: source.slice(from, to) });
    from = to;
  };
  while (i < n) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      const e = source.indexOf('\n', i);
      i = e < 0 ? n : e;
    } else if (c === '/' && source[i + 1] === '*') {
      const e = source.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
    } else if (c === '#' && depth === 0) {
      // A preprocessor line (and its continuations) stands alone: an #if around functions
      // stays whichever of them are kept.
      const start = source.lastIndexOf('\n', i) + 1;
      if (start > from) cut(start, null);
      let e = i;
      do {
        e = source.indexOf('\n', e + 1);
      } while (e > 0 && source[e - 1] === '\\');
      i = e < 0 ? n : e + 1;
      cut(i, null);
    } else {
      if (c === '{') {
        if (depth === 0) open = i;
        depth++;
      } else if (c === '}') {
        depth--;
        if (depth < 0) break;
        if (depth === 0) {
          const head = source.slice(from, open).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '');
          // A GLSL head ends `name(...)`; a WGSL one (routinesCalledBy reads WGSL) has `fn name(`.
          const m = /\bfn\s+(\w+)\s*\(/.exec(head) || /(\w+)\s*\([^()]*\)\s*$/.exec(head);
          // A struct's declaration runs to its ';'.
          if (m) cut(i + 1, m[1]);
        }
      } else if (c === ';' && depth === 0) {
        cut(i + 1, null);
      }
      i++;
    }
  }
  if (depth !== 0) return null;
  cut(n, null);
  const calls = new Map();
  pieces.forEach(function (p) {
    if (p.name !== null) calls.set(p.name, new Set());
  });
  pieces.forEach(function (p) {
    p.clean = uncommented(p.text);
    if (p.name === null) return;
    const body = p.text.slice(p.text.indexOf('{')).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '');
    p.own = body.replace(/\s+/g, ' ').length;
    p.sites = [];
    for (const m of body.matchAll(/\b(\w+)\s*\(/g)) {
      if (calls.has(m[1]) && m[1] !== p.name) {
        calls.get(p.name).add(m[1]);
        p.sites.push(m[1]);
      }
    }
  });
  return { pieces: pieces, calls: calls, sizes: new Map() };
}

// The names of the library's functions that `code` calls, directly or not.
export function reachable(index, code) {
  const seen = new Set();
  const stack = [];
  for (const m of code.replace(/\/\/[^\n]*/g, '').matchAll(/\b(\w+)\s*\(/g)) {
    if (index.calls.has(m[1]) && !seen.has(m[1])) {
      seen.add(m[1]);
      stack.push(m[1]);
    }
  }
  while (stack.length) {
    index.calls.get(stack.pop()).forEach(function (c) {
      if (!seen.has(c)) {
        seen.add(c);
        stack.push(c);
      }
    });
  }
  return seen;
}

// `source` without the functions and constant tables `code` never reaches, and without its
// comments: the driver parses only what the program runs (the whole export is about 60 ms of
// every program's compile on SwiftShader, measured; the compilers drop what is not reached
// anyway, so the code proven is the same).
export function librarySlice(source, code) {
  const index = functionIndex(source);
  if (!index) return source;
  // Roots: what the program's code calls and what the library's macros call (DF64_B).
  const keep = reachable(index, code + index.pieces.filter(function (p) { return p.name === null; })
    .map(function (p) { return p.clean; }).join(''));
  const kept = index.pieces.filter(function (p) { return p.name === null || keep.has(p.name); });
  // A constant is kept where what is kept names it (twice over: a table may name another).
  const constant = function (p) {
    if (p.constant === undefined) p.constant = constantName(p);
    return p.constant;
  };
  let text = kept.filter(function (p) { return !constant(p); }).map(function (p) { return p.clean; }).join('') + code;
  let out = kept;
  for (let pass = 0; pass < 2; pass++) {
    out = kept.filter(function (p) {
      const name = constant(p);
      return !name || new RegExp('\\b' + name + '\\b').test(text);
    });
    text = out.map(function (p) { return p.clean; }).join('') + code;
  }
  return out.map(function (p) { return p.clean; }).join('');
}

// The name a top-level `const` declaration defines, or a plain global array with an
// initialiser (the GLSL ES export's tables); null for anything else, and for a declaration of
// several names (kept whole).
function constantName(p) {
  if (p.name !== null) return null;
  const t = p.clean;
  const m = /^\s*const\s+(?:\w+\s+)*?(\w+)\s*(?:\[[^\]]*\]\s*)?=/.exec(t) ||
    /^\s*(?:float|int|uint)\s+(\w+)\s*\[[^\]]*\]\s*=/.exec(t);
  let flat = t;
  for (let k = 0; k < 8 && /\([^()]*\)|\[[^\[\]]*\]/.test(flat); k++) flat = flat.replace(/\([^()]*\)|\[[^\[\]]*\]/g, '');
  return m && flat.indexOf(',') < 0 ? m[1] : null;
}

// GLSL without its comments (it has no strings, so every // and /* starts one); lines kept.
export function uncommented(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, function (c) { return c.replace(/[^\n]/g, ''); })
    .replace(/\/\/[^\n]*/g, '');
}

// The size of `code` with every call inlined (characters), as a compiler that inlines every
// call (SwiftShader) compiles it: what a program's compile time follows.
export function inlinedSize(source, code) {
  const index = functionIndex(source);
  if (!index) return 0;
  // A function's size: its own text plus its callees' at each call site (the largest of its
  // definitions, where the preprocessor picks one).
  const size = function (name, depth) {
    if (index.sizes.has(name)) return index.sizes.get(name);
    let s = 0;
    index.pieces.forEach(function (p) {
      if (p.name !== name) return;
      let t = p.own;
      if (depth < 64) p.sites.forEach(function (c) { t += size(c, depth + 1); });
      s = Math.max(s, t);
    });
    index.sizes.set(name, s);
    return s;
  };
  let total = code.length;
  for (const m of code.replace(/\/\/[^\n]*/g, '').matchAll(/\b(\w+)\s*\(/g)) {
    if (index.calls.has(m[1])) total += size(m[1], 0);
  }
  return total;
}

// The programs a check compiles for `codes` (each a routine's GLSL): each code in the first
// program that still has room for it, the small ones together up to `groupSize` characters
// inlined (inlinedSize), one of that size or more alone. First fit rather than runs in order,
// so that a large routine between small ones does not split them (the three.js materials'
// four routines: three programs with the probe instead of four, the check on ANGLE over Mesa
// 286 ms against 359, medians of five launches). Returns [{members: indices into `codes`,
// ascending, size}].
export function programGroups(source, codes, groupSize) {
  const groups = [];
  codes.forEach(function (code, k) {
    const s = inlinedSize(source, code);
    const room = groups.find(function (g) { return g.size + s <= groupSize; });
    if (room) {
      room.members.push(k);
      room.size += s;
    } else {
      groups.push({ members: [k], size: s });
    }
  });
  return groups;
}
