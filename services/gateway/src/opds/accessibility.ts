// An issue's accessibility metadata (catalog's Accessibility: what reader read
// from the file, in EPUB Accessibility 1.1 / schema.org terms) as the catalog
// model carries it, checked against the vocabularies OPDS 2.0 and Readium
// publish (the W3C's schema.org accessibility vocabulary, as
// https://readium.org/webpub-manifest/schema/a11y.schema.json enumerates it).
// A file can say anything: a value outside the vocabulary is left out (its
// canonical spelling is restored when only the case differs), a conformsTo
// that is not a URI is mapped to its URI when it is one of the EPUB
// Accessibility profiles written out ("EPUB Accessibility 1.1 - WCAG 2.1
// Level AA"), and dropped otherwise, so that every feed stays valid for the
// clients that validate it. opds2.ts renders it as `metadata.accessibility`,
// opds1.ts as schema.org and Dublin Core elements.
import type { catalog } from '@folio/proto';

export interface AccessibilityEntry {
  conformsTo: string[];
  accessModes: string[];
  /** Each a set of modes that suffice together. */
  accessModesSufficient: string[][];
  features: string[];
  hazards: string[];
  summary?: string;
  certifiedBy?: string;
}

/** Values of each property in their canonical spelling, keyed by lower case. */
const vocabulary = (values: string[]) => new Map(values.map((value) => [value.toLowerCase(), value]));

const ACCESS_MODES = vocabulary([
  'auditory',
  'chartOnVisual',
  'chemOnVisual',
  'colorDependent',
  'diagramOnVisual',
  'mathOnVisual',
  'musicOnVisual',
  'tactile',
  'textOnVisual',
  'textual',
  'visual',
]);
const SUFFICIENT_MODES = vocabulary(['auditory', 'tactile', 'textual', 'visual']);
const FEATURES = vocabulary([
  'annotations',
  'ARIA',
  'bookmarks',
  'index',
  'pageBreakMarkers',
  'printPageNumbers',
  'pageNavigation',
  'readingOrder',
  'structuralNavigation',
  'tableOfContents',
  'taggedPDF',
  'alternativeText',
  'audioDescription',
  'closedCaptions',
  'captions',
  'describedMath',
  'longDescription',
  'openCaptions',
  'signLanguage',
  'transcript',
  'displayTransformability',
  'synchronizedAudioText',
  'timingControl',
  'unlocked',
  'ChemML',
  'latex',
  'latex-chemistry',
  'MathML',
  'MathML-chemistry',
  'ttsMarkup',
  'highContrastAudio',
  'highContrastDisplay',
  'largePrint',
  'braille',
  'tactileGraphic',
  'tactileObject',
  'fullRubyAnnotations',
  'horizontalWriting',
  'rubyAnnotations',
  'verticalWriting',
  'withAdditionalWordSegmentation',
  'withoutAdditionalWordSegmentation',
  'none',
  'unknown',
]);
const HAZARDS = vocabulary([
  'flashing',
  'motionSimulation',
  'sound',
  'none',
  'noFlashingHazard',
  'noMotionSimulationHazard',
  'noSoundHazard',
  'unknown',
  'unknownFlashingHazard',
  'unknownMotionSimulationHazard',
  'unknownSoundHazard',
]);

/** The EPUB Accessibility conformance profiles written out, as EPUB Accessibility 1.1 lets a package say them. */
const PROFILE_TEXT = /^EPUB Accessibility (1\.0|1\.1)\s*-\s*WCAG (2\.[012])\s+Level (A{1,3})$/i;

function profileUri(value: string): string | undefined {
  const match = PROFILE_TEXT.exec(value.trim());
  if (!match) return undefined;
  const [, epub, wcag, level] = match;
  const lowered = level!.toLowerCase();
  if (epub === '1.0') return wcag === '2.0' ? `http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-${lowered}` : undefined;
  return `https://www.w3.org/TR/epub-a11y-11#wcag-${wcag}-${lowered}`;
}

function conformance(value: string): string | undefined {
  const trimmed = value.trim();
  if (/^https?:\/\/\S+$/i.test(trimmed) && URL.canParse(trimmed)) return trimmed;
  return profileUri(trimmed);
}

const known = (values: readonly string[], words: Map<string, string>) => unique(values.flatMap((value) => words.get(value.trim().toLowerCase()) ?? []));

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** What can be shown of an issue's accessibility; undefined when nothing (or nothing valid) is known. */
export function accessibilityEntryOf(a11y: catalog.Accessibility | undefined): AccessibilityEntry | undefined {
  if (!a11y) return undefined;
  const sufficient: string[][] = [];
  for (const set of a11y.accessModesSufficient) {
    const modes = known(set.split(','), SUFFICIENT_MODES);
    if (modes.length > 0 && !sufficient.some((other) => other.join(',') === modes.join(','))) sufficient.push(modes);
  }
  const entry: AccessibilityEntry = {
    conformsTo: unique(a11y.conformsTo.flatMap((value) => conformance(value) ?? [])),
    accessModes: known(a11y.accessModes, ACCESS_MODES),
    accessModesSufficient: sufficient,
    features: known(a11y.features, FEATURES),
    hazards: known(a11y.hazards, HAZARDS),
    ...(a11y.summary?.trim() && { summary: a11y.summary.trim() }),
    ...(a11y.certifiedBy?.trim() && { certifiedBy: a11y.certifiedBy.trim() }),
  };
  const empty =
    !entry.summary &&
    !entry.certifiedBy &&
    [entry.conformsTo, entry.accessModes, entry.accessModesSufficient, entry.features, entry.hazards].every((list) => list.length === 0);
  return empty ? undefined : entry;
}

/** Readium's / OPDS 2.0's `metadata.accessibility` (a11y.schema.json): a single sufficient mode as a string, a set as an array. */
export interface ReadiumAccessibility {
  conformsTo?: string[];
  accessMode?: string[];
  accessModeSufficient?: (string | string[])[];
  feature?: string[];
  hazard?: string[];
  summary?: string;
  certification?: { certifiedBy: string };
}

export function readiumAccessibility(entry: AccessibilityEntry): ReadiumAccessibility {
  return {
    ...(entry.conformsTo.length > 0 && { conformsTo: entry.conformsTo }),
    ...(entry.accessModes.length > 0 && { accessMode: entry.accessModes }),
    ...(entry.accessModesSufficient.length > 0 && { accessModeSufficient: entry.accessModesSufficient.map((set) => (set.length === 1 ? set[0]! : set)) }),
    ...(entry.features.length > 0 && { feature: entry.features }),
    ...(entry.hazards.length > 0 && { hazard: entry.hazards }),
    ...(entry.summary && { summary: entry.summary }),
    ...(entry.certifiedBy && { certification: { certifiedBy: entry.certifiedBy } }),
  };
}
