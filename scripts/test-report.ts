/**
 * What one Vitest suite's JSON report adds to `npm test`'s closing line (scripts/test.mjs). A file
 * that fails to run (an import that throws, a failing `beforeAll`/`afterAll`) has status "failed"
 * but no failed test, so counting tests alone printed "870 passed, 0 failed" over a broken file:
 * each such file counts as one failure here.
 */
import { z } from "zod";

/** The fields of Vitest's `--reporter=json` output read here. */
export const VitestReport = z.object({
  numTotalTests: z.number(),
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number(),
  numTodoTests: z.number().optional(),
  testResults: z.array(
    z.object({
      name: z.string(),
      status: z.string(),
      message: z.string().optional(),
      assertionResults: z.array(z.object({ status: z.string() })),
    }),
  ),
});
export type VitestReport = z.infer<typeof VitestReport>;

/** A file that failed with no failed test to show for it, and Vitest's first line on why. */
export interface BrokenFile {
  name: string;
  reason: string;
}

export interface SuiteCount {
  passed: number;
  /** Failed tests plus broken files. */
  failed: number;
  skipped: number;
  total: number;
  brokenFiles: BrokenFile[];
}

export function countReport(report: VitestReport): SuiteCount {
  const brokenFiles = report.testResults
    .filter((file) => file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"))
    .map((file) => ({
      name: file.name,
      reason: file.message?.split("\n")[0] || "no message: the suite's own output above says why",
    }));
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles.length,
    skipped: report.numPendingTests + (report.numTodoTests ?? 0),
    total: report.numTotalTests,
    brokenFiles,
  };
}
