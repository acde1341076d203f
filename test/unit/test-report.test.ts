// `npm test`'s closing line: a file that fails to run counts as failed, not only its failed tests.
import { describe, expect, it } from "vitest";
import { countReport, VitestReport } from "../../scripts/test-report";

/** Vitest 5's JSON report of two files, one of which threw on import (trimmed to what is read). */
const LOAD_FAILED = {
  numTotalTestSuites: 2,
  numPassedTestSuites: 1,
  numFailedTestSuites: 1,
  numPendingTestSuites: 0,
  numTotalTests: 1,
  numPassedTests: 1,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  success: false,
  testResults: [
    {
      assertionResults: [],
      status: "failed",
      message: "browserType.launch: spawn ETXTBSY\nCall log: …",
      name: "/repo/test/e2e/partial-views.test.ts",
    },
    {
      assertionResults: [{ fullName: "fine", status: "passed", title: "fine", failureMessages: [] }],
      status: "passed",
      message: "",
      name: "/repo/test/e2e/ok.test.ts",
    },
  ],
};

describe("countReport", () => {
  it("counts a file that failed to load as a failure, with Vitest's first line on why", () => {
    const count = countReport(VitestReport.parse(LOAD_FAILED));
    expect(count).toEqual({
      passed: 1,
      failed: 1,
      skipped: 0,
      total: 1,
      brokenFiles: [{ name: "/repo/test/e2e/partial-views.test.ts", reason: "browserType.launch: spawn ETXTBSY" }],
    });
  });

  it("counts a file whose tests failed by its tests only, not once more as a file", () => {
    const report = VitestReport.parse({
      ...LOAD_FAILED,
      numFailedTests: 2,
      numTotalTests: 3,
      testResults: [
        {
          assertionResults: [{ status: "failed" }, { status: "failed" }],
          status: "failed",
          name: "/repo/test/unit/a.test.ts",
        },
        LOAD_FAILED.testResults[1],
      ],
    });
    expect(countReport(report)).toMatchObject({ passed: 1, failed: 2, brokenFiles: [] });
  });

  it("counts a file whose tests passed but whose afterAll failed as one failure", () => {
    const report = VitestReport.parse({
      ...LOAD_FAILED,
      testResults: [
        { assertionResults: [{ status: "passed" }], status: "failed", message: "", name: "/repo/b.test.ts" },
      ],
    });
    const count = countReport(report);
    expect(count.failed).toBe(1);
    expect(count.brokenFiles[0]?.reason).toMatch(/no message/);
  });

  it("counts skipped and todo tests as skipped, and a clean report as no failure", () => {
    const report = VitestReport.parse({
      ...LOAD_FAILED,
      numPendingTests: 2,
      numTodoTests: 1,
      testResults: [LOAD_FAILED.testResults[1]],
    });
    expect(countReport(report)).toMatchObject({ failed: 0, skipped: 3, brokenFiles: [] });
  });
});
