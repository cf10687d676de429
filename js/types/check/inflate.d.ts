/**
 * The `size` bytes that the raw deflate stream `input` holds; an Error if the stream is cut
 * short, malformed, or holds another number of bytes.
 * @param {Uint8Array} input
 * @param {number} size
 * @returns {Uint8Array}
 */
export function inflate(input: Uint8Array, size: number): Uint8Array;
