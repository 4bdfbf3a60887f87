import { describe, expect, it } from 'vitest';
import { opds1ErrorFeed } from './opds1.js';
import { problemDetails } from './opds2.js';

describe('OPDS error answers', () => {
  it('when an error is rendered for OPDS 2.0, then it is RFC 9457 Problem Details: the status phrase as title, the message as detail', () => {
    expect(problemDetails(422, 'The query must be between 2 and 128 characters.', { query: ['Too short.'] })).toEqual({
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail: 'The query must be between 2 and 128 characters.',
      errors: { query: ['Too short.'] },
    });
    expect(problemDetails(404, 'Section not found.')).not.toHaveProperty('errors');
  });

  it('when an error is rendered for OPDS 1.2, then it is an Atom feed whose text is escaped and whose links lead back to the catalog', () => {
    const xml = opds1ErrorFeed('http://northwind.localhost:8080', 404, 'No <shelf> "a&b"', { collection: ['Unknown\u0001 slug.'] });
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom"/);
    expect(xml).toContain('<title>No &lt;shelf&gt; &quot;a&amp;b&quot;</title>');
    expect(xml).toContain('collection: Unknown slug.');
    expect(xml).not.toContain('\u0001');
    expect(xml).toContain('<link rel="start" href="http://northwind.localhost:8080/opds/v1.2/catalog"');
    expect(xml.match(/<entry>/g)).toHaveLength(1);
  });
});
