// `npm test`'s node:test reporter: the dot reporter's dots (and its list of failed tests), then a
// last line saying how many tests passed and failed (and were todo or skipped). Suites are not
// counted, their tests are.
import { dot } from 'node:test/reporters';

export default async function* reporter(source) {
  const counts = { passed: 0, failed: 0, todo: 0, skipped: 0 };
  async function* counted() {
    for await (const event of source) {
      if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.details?.type !== 'suite') {
        const { skip, todo } = event.data;
        if (todo !== undefined && todo !== false) counts.todo++;
        else if (skip !== undefined && skip !== false) counts.skipped++;
        else counts[event.type === 'test:pass' ? 'passed' : 'failed']++;
      }
      yield event;
    }
  }
  yield* dot(counted());
  yield `\n${counts.passed} passed, ${counts.failed} failed, ${counts.todo} todo, ${counts.skipped} skipped\n`;
}
