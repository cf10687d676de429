/** @param {number} lng */
export function mercatorX(lng: number): number;
/** @param {number} lat */
export function mercatorY(lat: number): number;
/**
 * The altitude in mercator units at the latitude (over the circumference there).
 * @param {number} altitude
 * @param {number} lat
 */
export function mercatorZ(altitude: number, lat: number): number;
/**
 * A point's longitude, latitude and altitude checked: finite, and the latitude strictly inside
 * +-90 (mercator has no poles) or, with `poles`, within them; a RangeError naming `what`.
 * @param {number} lng
 * @param {number} lat
 * @param {number} alt
 * @param {string} what
 * @param {boolean} poles
 */
export function checkPoint(lng: number, lat: number, alt: number, what: string, poles: boolean): void;
/**
 * (longitude, latitude, altitude) triples through `convert`, each point checked first
 * (`checkPoint`), into a Float64Array of triples; a TypeError for what is not triples of numbers.
 * @param {ArrayLike<number>} lngLatAlt
 * @param {string} who the caller, as its errors name it
 * @param {boolean} poles
 * @param {(lng: number, lat: number, alt: number) => number[]} convert
 * @returns {Float64Array}
 */
export function convertTriples(lngLatAlt: ArrayLike<number>, who: string, poles: boolean, convert: (lng: number, lat: number, alt: number) => number[]): Float64Array;
export const EARTH_RADIUS: 6371008.8;
export const EARTH_CIRCUMFERENCE: number;
