import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repositoryPath, serviceSources } from './support/sources.js';

// Every SQL function the migrations define (the latest definition; dropped ones gone) is called by
// the code, by a trigger, or by another function that is itself used: none is left behind unused.

interface Defined {
  body: string;
  trigger: boolean;
}

/** The functions the migrations leave defined, by name, with their bodies. */
function definedFunctions(): Map<string, Defined> {
  const dir = repositoryPath('prisma', 'migrations');
  const defined = new Map<string, Defined>();
  const triggers = new Set<string>();
  for (const name of readdirSync(dir)
    .filter((n) => /^\d{14}_/.test(n))
    .sort()) {
    const text = readFileSync(`${dir}/${name}/migration.sql`, 'utf8');
    const statement =
      /\b(CREATE(?:\s+OR\s+REPLACE)?\s+FUNCTION|DROP\s+FUNCTION(?:\s+IF\s+EXISTS)?)\s+(?:public\.)?"?(\w+)"?|EXECUTE\s+(?:FUNCTION|PROCEDURE)\s+(?:public\.)?"?(\w+)"?/gi;
    for (const m of text.matchAll(statement)) {
      if (m[3]) {
        triggers.add(m[3].toLowerCase());
      } else if (/^DROP/i.test(m[1]!)) {
        defined.delete(m[2]!.toLowerCase());
      } else {
        const rest = text.slice(m.index! + m[0].length);
        const open = /\$(\w*)\$/.exec(rest);
        const close = open ? rest.indexOf(open[0], open.index + open[0].length) : -1;
        const body = open && close > 0 ? rest.slice(open.index + open[0].length, close) : rest.slice(0, rest.indexOf(';'));
        defined.set(m[2]!.toLowerCase(), { body, trigger: /RETURNS\s+trigger/i.test(rest.slice(0, open?.index ?? 0)) });
      }
    }
  }
  for (const [name, fn] of defined) if (triggers.has(name)) fn.trigger = true;
  return defined;
}

describe('SQL functions of the migrations', () => {
  it('are each called by the code, a trigger or another used function', () => {
    const defined = definedFunctions();
    const code = serviceSources()
      .map((f) => f.text)
      .join('\n');
    const calls = (text: string, name: string) => new RegExp(`\\b${name}\\s*\\(`, 'i').test(text);
    const used = new Set([...defined].filter(([name, fn]) => fn.trigger || calls(code, name)).map(([name]) => name));
    for (let grew = true; grew;) {
      grew = false;
      for (const name of used)
        for (const [other] of defined)
          if (!used.has(other) && calls(defined.get(name)!.body, other)) {
            used.add(other);
            grew = true;
          }
    }
    expect(defined.size).toBeGreaterThan(5);
    expect([...defined.keys()].filter((name) => !used.has(name))).toEqual([]);
  });
});
