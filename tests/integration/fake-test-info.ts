/**
 * A stand-in for Playwright's TestInfo, for the property runner
 * in unit tests: it records attachments, and a skip throws.
 */
import type { PropertyTestInfo } from '../../generation/properties.ts';

export function fakeTestInfo(title: string): PropertyTestInfo & { attachments: string[] } {
  const attachments: string[] = [];
  let timeout = 60_000;
  return {
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
}
