// MapLibre's earth in doubles: its sphere's radius, spherical mercator
// (MercatorCoordinate.fromLngLat), and the checks and conversion of (longitude, latitude,
// altitude) triples that the mercator words and the three.js frames share.

import { numbersArg } from '../words.js';

export const EARTH_RADIUS = 6371008.8;
export const EARTH_CIRCUMFERENCE = 2 * Math.PI * EARTH_RADIUS;

/** @param {number} lng */
export function mercatorX(lng) {
  return (180 + lng) / 360;
}

/** @param {number} lat */
export function mercatorY(lat) {
  return (180 - 180 / Math.PI * Math.log(Math.tan(Math.PI / 4 + lat * Math.PI / 360))) / 360;
}

/**
 * The altitude in mercator units at the latitude (over the circumference there).
 * @param {number} altitude
 * @param {number} lat
 */
export function mercatorZ(altitude, lat) {
  return altitude / (EARTH_CIRCUMFERENCE * Math.cos(lat * Math.PI / 180));
}

/**
 * A point's longitude, latitude and altitude checked: finite, and the latitude strictly inside
 * +-90 (mercator has no poles) or, with `poles`, within them; a RangeError naming `what`.
 * @param {number} lng
 * @param {number} lat
 * @param {number} alt
 * @param {string} what
 * @param {boolean} poles
 */
export function checkPoint(lng, lat, alt, what, poles) {
  if (!Number.isFinite(lng) || !Number.isFinite(lat) || !Number.isFinite(alt)) {
    throw new RangeError(what + ' is (' + lng + ', ' + lat + ', ' + alt + '): longitude, latitude and altitude are finite numbers');
  }
  if (poles ? !(Math.abs(lat) <= 90) : !(Math.abs(lat) < 90)) {
    throw new RangeError(what + ' has latitude ' + lat + (poles ? '; latitudes are in [-90, 90]'
      : '; mercator takes latitudes strictly between -90 and 90'));
  }
}

/**
 * (longitude, latitude, altitude) triples through `convert`, each point checked first
 * (`checkPoint`), into a Float64Array of triples; a TypeError for what is not triples of numbers.
 * @param {ArrayLike<number>} lngLatAlt
 * @param {string} who the caller, as its errors name it
 * @param {boolean} poles
 * @param {(lng: number, lat: number, alt: number) => number[]} convert
 * @returns {Float64Array}
 */
export function convertTriples(lngLatAlt, who, poles, convert) {
  numbersArg(lngLatAlt, who, 'an array of numbers (longitude, latitude, altitude, ...)');
  if (lngLatAlt.length % 3 !== 0) {
    throw new TypeError(who + ': the points are (longitude, latitude, altitude) triples; the length ' +
      lngLatAlt.length + ' is not a multiple of 3');
  }
  const out = new Float64Array(lngLatAlt.length);
  for (let i = 0; i < lngLatAlt.length; i += 3) {
    const lng = lngLatAlt[i], lat = lngLatAlt[i + 1], alt = lngLatAlt[i + 2];
    checkPoint(lng, lat, alt, who + ': point ' + i / 3, poles);
    out.set(convert(lng, lat, alt), i);
  }
  return out;
}
