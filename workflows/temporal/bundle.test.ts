import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { PROCESS_MODULES } from '../processes/registry.js';

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

// Temporal's own bundler is the sandbox check: it refuses workflow code that reaches for Node I/O.
describe('the Temporal workflow bundle', () => {
  it("builds from workflows.ts with only pure modules in it, and the service's processes only", async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)), logger: quiet });
    expect(code).toContain('durableProcess');
    for (const { definition } of PROCESS_MODULES)
      expect(new RegExp(`name: ["']${definition.name}["']`).test(code), definition.name).toBe(true);
    expect(code).not.toMatch(/name: ["']ping["']|sendPing/);
    expect(code).not.toMatch(/generated\/prisma|src\/lib|node:fs/);
    // The processes' wiring (activities, starts) stays out: the registry loads it by an import the bundler leaves alone.
    expect(/import\(\/\* webpackIgnore: true \*\/ ["']\.\/erase\/wiring\.js["']\)/.test(code)).toBe(true);
    expect(/deliveriesFor|systemContext|eraseContactData\(/.test(code)).toBe(false);
    expect(() => new Script(code)).not.toThrow();
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
