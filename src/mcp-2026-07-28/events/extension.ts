/**
 * The Events extension as the 2026-07-28 endpoint serves it: its methods, and how `server/discover`
 * declares it — under `extensions`, and as the top-level `events` capability the AI SDK and ChatGPT
 * look for. No client capability is asked of the caller: the clients that speak it send none.
 */
import type { Extension } from "../extension-methods";
import { EVENTS_EXTENSION } from "../protocol";
import { listEvents, pollEvents } from "./list-poll";
import { streamEvents } from "./stream";
import { subscribeEvents, unsubscribeEvents } from "./subscribe";

export const EVENTS: Extension = {
  id: EVENTS_EXTENSION,
  settings: { listChanged: false },
  topLevel: { events: {} },
  methods: new Map([
    ["events/list", { run: listEvents }],
    ["events/poll", { run: pollEvents }],
    ["events/stream", { run: streamEvents }],
    ["events/subscribe", { run: subscribeEvents }],
    ["events/unsubscribe", { run: unsubscribeEvents }],
  ]),
};
