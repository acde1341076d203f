/**
 * The task console's script: asks for a token only when the server wants one, then shows the
 * caller's tasks live (live.ts) as cards (card.ts). Bundled into the page by scripts/build-ui.mjs.
 */
import { Api, AuthRequired } from "./api";
import { ListView } from "./list-view";
import type { Answer } from "./question";
import { Live, MAX_STREAMS_H1, MAX_STREAMS_MULTIPLEXED } from "./live";
import { applyDocument } from "./state";
import { TaskStore } from "./store";

function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`The page lacks #${id}.`);
  return node;
}

const ui = {
  signIn: byId("sign-in", HTMLFormElement),
  token: byId("token", HTMLInputElement),
  signInError: byId("sign-in-error", HTMLElement),
  console: byId("console", HTMLElement),
  who: byId("who", HTMLElement),
  principal: byId("principal", HTMLElement),
  signOut: byId("sign-out", HTMLButtonElement),
  live: byId("live", HTMLElement),
  problem: byId("problem", HTMLElement),
  tasks: byId("tasks", HTMLElement),
  counts: byId("counts", HTMLElement),
  empty: byId("empty", HTMLElement),
  older: byId("older", HTMLButtonElement),
  origin: byId("origin", HTMLElement),
  example: byId("example", HTMLElement),
};

/** The empty list's hint: a curl command that starts a task here. */
const exampleTemplate = ui.example.textContent ?? "";
const example = (withToken: boolean) =>
  exampleTemplate
    .replace("$ORIGIN", location.origin)
    .replace(
      "  -H 'Content-Type",
      withToken ? "  -H 'Authorization: Bearer <token>' \\\n  -H 'Content-Type" : "  -H 'Content-Type",
    );

const api = new Api(sessionStorage);

/** HTTP/1.1 (local dev) allows 6 connections per host; HTTP/2 and 3 share one. */
function maxStreams(): number {
  const [navigation] = performance.getEntriesByType("navigation");
  const protocol = navigation instanceof PerformanceNavigationTiming ? navigation.nextHopProtocol : "";
  return protocol === "h2" || protocol === "h3" ? MAX_STREAMS_MULTIPLEXED : MAX_STREAMS_H1;
}

let olderCursor: string | undefined;

const view = new ListView(ui.tasks, ui.counts, ui.empty, {
  cancel: (taskId) => void cancel(taskId),
  answer: (taskId, key, answer) => void answerQuestion(taskId, key, answer),
  details: (taskId, open) => live.want(taskId, open),
});
const store = new TaskStore(view);
const live = new Live(
  api,
  store,
  {
    authLost: (error) => showSignIn(error),
    problem: (message) => {
      ui.problem.textContent = message ?? "";
      ui.problem.hidden = message === undefined;
      ui.live.dataset["state"] = message === undefined ? "ok" : "down";
      ui.live.title = message === undefined ? "Live" : "Reconnecting…";
    },
    listed: (principal, nextCursor, first) => {
      ui.principal.textContent = principal;
      ui.console.hidden = false;
      ui.who.hidden = false;
      ui.signOut.hidden = !api.hasToken;
      ui.live.dataset["state"] = "ok";
      ui.empty.hidden = store.size > 0;
      if (first) {
        setOlder(nextCursor);
        ui.example.textContent = example(api.hasToken);
      }
    },
  },
  maxStreams(),
);

function setOlder(cursor: string | undefined): void {
  olderCursor = cursor;
  ui.older.hidden = cursor === undefined;
}

async function cancel(taskId: string): Promise<void> {
  try {
    const outcome = await api.cancel(taskId);
    if (!outcome.ok && outcome.reason === "gone") store.remove(taskId);
    else if (outcome.task) {
      const doc = outcome.task;
      store.update(taskId, (state) => applyDocument(state, doc));
    } else view.card(taskId)?.cancelFailed();
    live.poke();
  } catch (error) {
    view.card(taskId)?.cancelFailed();
    if (error instanceof AuthRequired) return showSignIn(error);
    ui.problem.textContent = `Cancel failed: ${error instanceof Error ? error.message : String(error)}`;
    ui.problem.hidden = false;
  }
}

async function answerQuestion(taskId: string, key: string, answer: Answer): Promise<void> {
  try {
    const outcome = await api.answer(taskId, { [key]: answer });
    if (!outcome.ok && outcome.reason === "gone") return store.remove(taskId);
    const doc = outcome.task;
    if (doc) store.update(taskId, (state) => applyDocument(state, doc));
    if (!outcome.ok) view.card(taskId)?.answerRefused(outcome.message);
    live.poke();
  } catch (error) {
    if (error instanceof AuthRequired) return showSignIn(error);
    view
      .card(taskId)
      ?.answerRefused(`The answer did not reach the server: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function showSignIn(error: AuthRequired): void {
  live.stop();
  store.clear();
  setOlder(undefined);
  if (error.refused) api.signOut();
  ui.console.hidden = true;
  ui.problem.hidden = true;
  ui.who.hidden = true;
  ui.signIn.hidden = false;
  ui.signInError.textContent = error.refused ? "That token was refused. Check it and try again." : "";
  ui.signInError.hidden = !error.refused;
  ui.token.value = "";
  ui.token.focus();
}

/** The console appears with the first page of tasks (listed above), so a sign-in never flashes it. */
function showConsole(): void {
  ui.signIn.hidden = true;
  live.start();
}

ui.signIn.addEventListener("submit", (event) => {
  event.preventDefault();
  const token = ui.token.value.trim();
  if (token === "") return;
  api.signIn(token);
  showConsole();
});

ui.signOut.addEventListener("click", () => {
  api.signOut();
  showSignIn(new AuthRequired(false, "Signed out."));
});

ui.older.addEventListener("click", async () => {
  if (olderCursor === undefined) return;
  ui.older.disabled = true;
  try {
    const page = await api.list(olderCursor);
    store.merge(page.tasks);
    setOlder(page.nextCursor);
    live.reconcile();
  } catch (error) {
    if (error instanceof AuthRequired) showSignIn(error);
  } finally {
    ui.older.disabled = false;
  }
});

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") live.poke();
});

ui.origin.textContent = location.origin;
showConsole();
