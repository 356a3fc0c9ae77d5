/**
 * A stand-in for Playwright's TestInfo, for the property runner
 * in unit tests: it records attachments, a skip throws, and it has a verdict sink open, as the suite's
 * fixture opens one for each test (the default reading of answers; the run's variables are this process's).
 */
import type { PropertyTestInfo } from '../../generation/properties.ts';
import { defaultAnswerSettings } from '../../judgment/answer-settings.ts';
import { openSink, VerdictSink } from '../../judgment/verdict-sink.ts';

export function fakeTestInfo(title: string): PropertyTestInfo & { attachments: string[] } {
  const attachments: string[] = [];
  let timeout = 60_000;
  const info = {
    title,
    file: 'unit',
    parallelIndex: 0,
    get timeout() {
      return timeout;
    },
    setTimeout(value: number) {
      timeout = value;
    },
    annotations: [],
    attachments,
    skip(condition?: boolean, description?: string) {
      if (condition !== false) throw new Error(`skipped: ${description ?? ''}`);
    },
    async attach(name: string, options?: { body?: string | Buffer }) {
      attachments.push(`${name}\n${String(options?.body ?? '')}`);
    },
  } as PropertyTestInfo & { attachments: string[] };
  openSink(info, new VerdictSink(defaultAnswerSettings, undefined, [], process.env));
  return info;
}
