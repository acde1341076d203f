/**
 * The owner's side of a lease (lease-client.ts is the isolate's). Every owner answers a round trip
 * the same way: it takes back what is given back first, then grants at most what was asked and at
 * most its room. What the room is stays each owner's own: a rate limiter's bucket refills with time
 * (src/limits/rate-limiter-object.ts); a principal's index reserves slots, by id, against its cap
 * of unfinished tasks and takes back overdue ones (src/principals/admission-slots.ts).
 */

/** Units to grant: what was asked, at most the room, in whole units, never fewer than none. */
export const grantSize = (want: number, room: number): number =>
  Math.max(0, Math.min(Math.floor(want), Math.floor(room)));
