// Inflate (RFC 1951, raw deflate), synchronous: the known answers are stored deflated, and
// `createFft` and `check` read them without awaiting, where DecompressionStream cannot go.

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
// The order in which a dynamic block lists its code-length code's lengths.
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

function damaged(why) {
  return new Error('df64gl: a deflated stream is damaged (' + why + '): the package is damaged; reinstall it');
}

// A canonical Huffman code from its symbols' lengths: how many codes of each length, and the
// symbols in code order.
function code(lengths) {
  const counts = new Uint16Array(16);
  for (let s = 0; s < lengths.length; s++) counts[lengths[s]]++;
  counts[0] = 0;
  const next = new Uint16Array(16);
  for (let len = 1; len < 16; len++) next[len] = next[len - 1] + counts[len - 1];
  const symbols = new Uint16Array(lengths.length);
  for (let s = 0; s < lengths.length; s++) if (lengths[s]) symbols[next[lengths[s]]++] = s;
  return { counts: counts, symbols: symbols };
}

let fixedCodes = null;
function fixed() {
  if (fixedCodes) return fixedCodes;
  const lengths = new Uint8Array(288);
  lengths.fill(8, 0, 144);
  lengths.fill(9, 144, 256);
  lengths.fill(7, 256, 280);
  lengths.fill(8, 280, 288);
  fixedCodes = { literals: code(lengths), distances: code(new Uint8Array(30).fill(5)) };
  return fixedCodes;
}

/**
 * The `size` bytes that the raw deflate stream `input` holds; an Error if the stream is cut
 * short, malformed, or holds another number of bytes.
 * @param {Uint8Array} input
 * @param {number} size
 * @returns {Uint8Array}
 */
export function inflate(input, size) {
  const out = new Uint8Array(size);
  let at = 0;
  let pos = 0;
  let held = 0;
  let count = 0;

  function bits(n) {
    while (count < n) {
      if (pos >= input.length) throw damaged('cut short');
      held |= input[pos++] << count;
      count += 8;
    }
    const value = held & ((1 << n) - 1);
    held >>>= n;
    count -= n;
    return value;
  }

  function symbol(h) {
    let c = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      c |= bits(1);
      const n = h.counts[len];
      if (c < first + n) return h.symbols[index + c - first];
      index += n;
      first = (first + n) << 1;
      c <<= 1;
    }
    throw damaged('no such code');
  }

  function codes(literals, distances) {
    for (;;) {
      const s = symbol(literals);
      if (s < 256) {
        if (at >= size) throw damaged('too long');
        out[at++] = s;
      } else if (s === 256) {
        return;
      } else {
        const l = s - 257;
        if (l >= 29) throw damaged('bad length');
        const length = LENGTH_BASE[l] + bits(LENGTH_EXTRA[l]);
        const d = symbol(distances);
        if (d >= 30) throw damaged('bad distance');
        const distance = DISTANCE_BASE[d] + bits(DISTANCE_EXTRA[d]);
        if (distance > at) throw damaged('distance too far back');
        if (at + length > size) throw damaged('too long');
        for (let k = 0; k < length; k++, at++) out[at] = out[at - distance];
      }
    }
  }

  function dynamic() {
    const nLiterals = bits(5) + 257;
    const nDistances = bits(5) + 1;
    const nLengths = bits(4) + 4;
    if (nLiterals > 286 || nDistances > 30) throw damaged('too many codes');
    const lengthLengths = new Uint8Array(19);
    for (let k = 0; k < nLengths; k++) lengthLengths[CODE_LENGTH_ORDER[k]] = bits(3);
    const lengthCode = code(lengthLengths);
    const lengths = new Uint8Array(nLiterals + nDistances);
    for (let k = 0; k < lengths.length;) {
      const s = symbol(lengthCode);
      if (s < 16) {
        lengths[k++] = s;
        continue;
      }
      let repeat;
      let value = 0;
      if (s === 16) {
        if (k === 0) throw damaged('a repeat with nothing before it');
        value = lengths[k - 1];
        repeat = 3 + bits(2);
      } else if (s === 17) {
        repeat = 3 + bits(3);
      } else {
        repeat = 11 + bits(7);
      }
      if (k + repeat > lengths.length) throw damaged('too many lengths');
      lengths.fill(value, k, k + repeat);
      k += repeat;
    }
    if (lengths[256] === 0) throw damaged('no end-of-block code');
    codes(code(lengths.subarray(0, nLiterals)), code(lengths.subarray(nLiterals)));
  }

  let last = 0;
  while (!last) {
    last = bits(1);
    const type = bits(2);
    if (type === 0) {
      // Stored: from the next byte boundary, a length, its complement, the bytes.
      held = 0;
      count = 0;
      if (pos + 4 > input.length) throw damaged('cut short');
      const length = input[pos] | (input[pos + 1] << 8);
      const complement = input[pos + 2] | (input[pos + 3] << 8);
      pos += 4;
      if ((length ^ 0xffff) !== complement) throw damaged('a stored length without its complement');
      if (pos + length > input.length) throw damaged('cut short');
      if (at + length > size) throw damaged('too long');
      out.set(input.subarray(pos, pos + length), at);
      pos += length;
      at += length;
    } else if (type === 1) {
      codes(fixed().literals, fixed().distances);
    } else if (type === 2) {
      dynamic();
    } else {
      throw damaged('a block of no known type');
    }
  }
  if (at !== size) throw damaged('too short');
  return out;
}
