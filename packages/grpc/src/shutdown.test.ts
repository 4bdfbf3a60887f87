import { createLogger } from '@folio/logger';
import { describe, expect, it } from 'vitest';
import { Teardown } from './shutdown.js';

describe('Teardown', () => {
  it('when run, then steps run newest first, a failing step does not stop the others, and a second run does nothing', async () => {
    const ran: string[] = [];
    const teardown = new Teardown(createLogger({ service: 'test', level: 'silent' }), 'test');
    teardown.add(() => ran.push('close database'));
    teardown.add(() => {
      throw new Error('broker already gone');
    });
    teardown.add(async () => ran.push('stop gRPC'));
    await teardown.run();
    await teardown.run();
    expect(ran).toEqual(['stop gRPC', 'close database']);
  });
});
