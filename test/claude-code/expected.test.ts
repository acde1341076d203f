// The patterns of expected.ts on their own (no CLI): they accept sentences that say what issue 24
// asks for, and reject what Claude Code handed the model before (JSON without the sentence).
import { describe, it } from "vitest";
import * as expected from "./expected";

const URL = "http://127.0.0.1:8787";
const ID = "0123456789abcdef0123456789abcdef";

describe("expected.ts", () => {
  it("takes a fallback that says it is not the result, to call task_result with the taskId, and when", ({ expect }) => {
    const said = expected.readable(
      JSON.stringify({
        taskId: ID,
        status: "working",
        next: `Still running (12 of 90). Not the result: call task_result with taskId ${ID} in about 80 s.`,
      }),
    );
    expect(said).toMatch(expected.FALLBACK_NOT_RESULT);
    expect(said).toMatch(expected.FALLBACK_CALL_BACK(ID));
    expect(said).toMatch(expected.FALLBACK_WHEN);
  });

  it("refuses the fallback's bare status object", ({ expect }) => {
    const said = expected.readable(
      JSON.stringify({
        taskId: ID,
        tool: "countdown",
        status: "working",
        statusMessage: "Running.",
        progress: 8,
        total: 60,
        message: "52 s left",
        pollInterval: 1000,
      }),
    );
    expect(said).not.toMatch(expected.FALLBACK_CALL_BACK(ID));
    expect(said).not.toMatch(expected.FALLBACK_WHEN);
  });

  it("takes a deploy result that says not deployed, that no one could answer, and where a person still can", ({
    expect,
  }) => {
    const said = expected.readable(
      JSON.stringify({
        deployed: false,
        summary: `Not deployed: no one could answer "Deploy api v2 to production?" here. A person can still answer at ${URL}/ or with POST ${URL}/tasks/${ID}/input.`,
      }),
    );
    expect(said).toMatch(expected.DEPLOY_NOT_DEPLOYED);
    expect(said).toMatch(expected.DEPLOY_NOBODY_ANSWERED);
    expect(said).toMatch(expected.DEPLOY_WHAT_NEXT(URL));
  });

  it("takes deploy's ended result: nobody answered, and to call it again where a person can confirm", ({ expect }) => {
    const said = expected.readable(
      JSON.stringify({
        summary:
          'Not deployed: nobody answered "Deploy api v2 to production?" (the question was cancelled: the person dismissed it, or the client could not show it to anyone). Nothing was rolled out; to deploy, call deploy again where a person can confirm it.',
        deployed: false,
      }),
    );
    expect(said).toMatch(expected.DEPLOY_NOT_DEPLOYED);
    expect(said).toMatch(expected.DEPLOY_NOBODY_ANSWERED);
    expect(said).toMatch(expected.DEPLOY_WHAT_NEXT(URL));
  });

  it("takes deploy's words when print mode cancels at once: the client answered on its own, and where a person can", ({
    expect,
  }) => {
    const summary =
      'Not deployed: the client cancelled "Deploy api v2 to production?" on its own, at once, so no one saw or answered the question. Nothing was rolled out. ' +
      "To deploy, call deploy again where a person can answer: from a client that shows them the question, or from one that lets it wait, " +
      "so they can answer it with task_input or in this server's task console (its / page).";
    const said = expected.readable(JSON.stringify({ summary, deployed: false }));
    expect(said).toMatch(expected.DEPLOY_NOT_DEPLOYED);
    expect(said).toMatch(expected.DEPLOY_NOBODY_ANSWERED);
    expect(said).toMatch(expected.DEPLOY_WHAT_NEXT(URL));
  });

  it("refuses deploy's bare cancel", ({ expect }) => {
    const said = expected.readable('{"deployed":false,"service":"api","version":"v2","action":"cancel"}');
    expect(said).not.toMatch(expected.DEPLOY_NOT_DEPLOYED);
    expect(said).not.toMatch(expected.DEPLOY_NOBODY_ANSWERED);
  });

  it("takes a description with the line on long calls and refuses the tool's own words alone", ({ expect }) => {
    const own = "Counts down the given number of seconds, reporting progress each second.";
    const line =
      "If a call takes more than a few seconds, it keeps running in the background " +
      'and answers "Still running" with a taskId ' +
      "instead of its result: then call task_result with that taskId when the answer says (not this tool again).";
    expect(`${own} ${line}`).toMatch(expected.DESCRIPTION_LONG_CALL);
    expect(own).not.toMatch(expected.DESCRIPTION_LONG_CALL);
  });

  it("takes instructions for a model and refuses wire jargon", ({ expect }) => {
    const forModel =
      "Long tool calls keep running in the background. If a call answers with a task link instead of a result, call task_result with its taskId when it says; if a tool asks a question, the person answers it.";
    expect(forModel).toMatch(expected.INSTRUCTIONS_CHECK_BACK);
    expect(forModel).toMatch(expected.INSTRUCTIONS_QUESTIONS);
    expect(forModel).not.toMatch(expected.INSTRUCTIONS_NO_WIRE);
    expect("follows it with tasks/get or subscriptions/listen").toMatch(expected.INSTRUCTIONS_NO_WIRE);
  });
});
