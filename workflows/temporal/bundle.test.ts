import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

// Temporal's own bundler is the sandbox check: it refuses workflow code that reaches for Node I/O.
describe('the Temporal workflow bundle', () => {
  it("builds from workflows.ts with only pure modules in it, and the service's processes only", async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)), logger: quiet });
    expect(code).toContain('durableProcess');
    expect(code).toMatch(/name: ["']erase["']/);
    expect(code).not.toMatch(/name: ["']ping["']|sendPing/);
    expect(code).not.toMatch(/generated\/prisma|src\/lib|node:fs/);
  });

  it("builds from the tests' workflows module too, which the Temporal suite hands its worker", async () => {
    const { code } = await bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('../../test/fixtures/ping/workflows.ts', import.meta.url)),
      logger: quiet,
    });
    expect(code).toMatch(/name: ["']ping["']/);
    expect(code).not.toMatch(/generated\/prisma|src\/lib|node:fs/);
  });
});
