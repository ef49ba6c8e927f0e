// G.711 μ-law, the phone network's 8-bit audio (what Twilio's Media Streams carry), and the
// base64 the stream's JSON messages wrap it in.

const BIAS = 0x84;
const CLIP = 32635;

/** One 16-bit PCM sample (−32768…32767) as a μ-law byte. */
export function encodeSample(sample) {
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent -= 1;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** One μ-law byte as a 16-bit PCM sample. */
export function decodeSample(byte) {
  const u = ~byte & 0xff;
  const magnitude = ((((u & 0x0f) << 3) + BIAS) << ((u >> 4) & 0x07)) - BIAS;
  return u & 0x80 ? -magnitude : magnitude;
}

// Decoding is a table look-up: 50 frames of 160 bytes a second, for the whole call.
const decodeTable = Float32Array.from({ length: 256 }, (_, byte) => decodeSample(byte) / 32768);

/** Float samples (−1…1) as μ-law bytes. */
export function encode(samples) {
  const bytes = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) {
    const clamped = Math.max(-1, Math.min(1, samples[i]));
    bytes[i] = encodeSample(Math.round(clamped * 32767));
  }
  return bytes;
}

/** μ-law bytes as float samples (−1…1). */
export function decode(bytes) {
  const samples = new Float32Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) samples[i] = decodeTable[bytes[i]];
  return samples;
}

export function toBase64(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

export function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
