import { describe, expect, it } from 'vitest';
import { apertiumChain, findRoute, routesFrom, stripMarks } from './apertium.js';

// The modes Debian's apertium-en-es, -es-pt, -en-ca and -ca-it install (`apertium -l`), with their variants.
const MODES = ['cat-eng', 'cat-eng_US', 'cat-ita', 'eng-cat', 'eng-cat_valencia', 'eng-spa', 'es-pt', 'es-pt_BR', 'ita-cat', 'pt-es', 'spa-eng', 'spa-eng_US'];

describe('Apertium routes', () => {
  const graph = routesFrom(MODES);

  it.each([
    ['en', 'es', ['eng-spa']],
    ['es', 'pt', ['es-pt']],
    ['en', 'pt', ['eng-spa', 'es-pt']],
    ['pt', 'en', ['pt-es', 'spa-eng']],
    ['en', 'it', ['eng-cat', 'cat-ita']],
    ['it', 'en', ['ita-cat', 'cat-eng']],
    ['es', 'it', ['spa-eng', 'eng-cat', 'cat-ita']],
    ['it', 'pt', ['ita-cat', 'cat-eng', 'eng-spa', 'es-pt']],
    ['en', 'en', []],
  ])('when translating %s to %s, then the route is %j', (from, to, route) => {
    expect(findRoute(graph, from, to)).toEqual(route);
  });

  it('when no pair reaches the target, then there is no route', () => {
    expect(findRoute(graph, 'en', 'de')).toBeUndefined();
  });

  it('when the route is run, then modes are arguments of a fixed script, never spliced into it', () => {
    const command = apertiumChain('apertium', ['eng-spa', 'es-pt']);
    expect(command.bin).toBe('bash');
    expect(command.args).toEqual(['-c', 'set -o pipefail; cat | "$0" -u -f txt "$1" | "$0" -u -f txt "$2"', 'apertium', 'eng-spa', 'es-pt']);
  });
});

describe('stripMarks', () => {
  it('when Apertium marks unknown, ungenerated or untransferred words, then the marks go and the words stay', () => {
    expect(stripMarks('El *keeper leyó #libros (@grande) y 3*4 = 12; email@host')).toBe('El keeper leyó libros (grande) y 3*4 = 12; email@host');
  });
});
