// What the createFft test pages (js-fft.html, js-fft-webgpu.html) share: reading the test's
// files synchronously (f64 inputs as Float64Array) and writing typed arrays as base64.

export function get(path, binary) {
  const x = new XMLHttpRequest();
  x.open('GET', path, false);
  if (binary) x.overrideMimeType('text/plain; charset=x-user-defined');
  x.send();
  if (x.status !== 200) throw new Error(path + ': ' + x.status);
  if (!binary) return x.responseText;
  const s = x.responseText;
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i) & 0xff;
  return new Float64Array(bytes.buffer);
}

export function base64(typed) {
  const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
