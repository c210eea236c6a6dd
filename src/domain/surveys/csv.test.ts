import { describe, expect, it } from 'vitest';
import { csvCell, headerRow, questionColumns, responseRow } from './csv.js';
import type { Survey } from './model.js';

describe('a CSV cell', () => {
  it('is left plain when it can be, quoted with its quotes doubled when it holds a comma, a quote or a line end', () => {
    expect(csvCell('Fast checkout')).toBe('Fast checkout');
    expect(csvCell('9')).toBe('9');
    expect(csvCell('')).toBe('');
    expect(csvCell('speed, price')).toBe('"speed, price"');
    expect(csvCell('She said "wow"')).toBe('"She said ""wow"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it("puts a ' before what a spreadsheet would run as a formula: = + - @ tab and carriage return first", () => {
    expect(csvCell('=HYPERLINK("http://x.example","click")')).toBe(`"'=HYPERLINK(""http://x.example"",""click"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    // Only the first character counts.
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(' =1')).toBe(' =1');
  });
});

describe('the rows of responses', () => {
  const a: Survey = {
    steps: [
      {
        id: 's1',
        questions: [
          { id: 'score', type: 'nps', title: 'Score?' },
          { id: 'why', type: 'long_text', title: 'Why?' },
        ],
      },
      { id: 'end', thankYou: true, blocks: [] },
    ],
  };
  const b: Survey = {
    steps: [
      {
        id: 's1',
        questions: [
          { id: 'score', type: 'nps', title: 'Score?' },
          { id: 'why2', type: 'short_text', title: 'Why?' },
        ],
      },
      { id: 'end', thankYou: true, blocks: [] },
    ],
  };

  it('have a column per question of every variant, once, with the id beside a title two questions share', () => {
    const columns = questionColumns([a, b]);
    expect(columns).toEqual([
      { question: 'score', header: 'Score?' },
      { question: 'why', header: 'Why? (why)' },
      { question: 'why2', header: 'Why? (why2)' },
    ]);
    expect(headerRow(columns)).toBe('started_at,submitted_at,variant,Score?,Why? (why),Why? (why2)\r\n');
  });

  it('write each answer as words in its column, empty where none, the times in UTC', () => {
    const columns = questionColumns([a]);
    const row = responseRow(columns, {
      startedAt: new Date('2026-11-01T10:00:00Z'),
      submittedAt: null,
      variant: 'a',
      answers: [{ question: 'why', title: 'Why?', text: '=cmd|"/c calc"!A1' }],
    });
    expect(row).toBe(`2026-11-01T10:00:00.000Z,,a,,"'=cmd|""/c calc""!A1"\r\n`);
    expect(
      responseRow(questionColumns([{ steps: [{ id: 's', questions: [{ id: 'pick', type: 'multiple', title: 'Pick' }] }] }]), {
        startedAt: new Date('2026-11-01T10:00:00Z'),
        submittedAt: new Date('2026-11-01T10:05:00Z'),
        variant: 'b',
        answers: [{ question: 'pick', title: 'Pick', options: ['chat', 'other'], other: '-all of it' }],
      }),
    ).toBe('2026-11-01T10:00:00.000Z,2026-11-01T10:05:00.000Z,b,"chat, other (-all of it)"\r\n');
  });
});
