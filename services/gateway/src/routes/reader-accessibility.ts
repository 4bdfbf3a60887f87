// A file's accessibility metadata (EPUB Accessibility 1.1 / schema.org terms,
// as reader and catalog answer it) in Readium's vocabulary: the
// `metadata.accessibility` object of a Web Publication Manifest, which OPDS 2
// publications share (https://readium.org/webpub-manifest/schema/a11y.schema.json).
// Readium's schema lists the values it takes; a term outside its lists
// cannot be said there and is left out, and `conformsTo` takes URIs, so EPUB
// Accessibility 1.1's conformance strings become the profile URIs Readium
// defines for them.

/** The shape reader's ContentAccessibility and catalog's Accessibility share. */
export interface AccessibilityFacts {
  conformsTo: string[];
  accessModes: string[];
  accessModesSufficient: string[];
  features: string[];
  hazards: string[];
  summary?: string | undefined;
  certifiedBy?: string | undefined;
}

export interface ReadiumAccessibility {
  conformsTo?: string[];
  accessMode?: string[];
  accessModeSufficient?: (string | string[])[];
  feature?: string[];
  hazard?: string[];
  summary?: string;
  certification?: { certifiedBy: string };
}

const ACCESS_MODES = new Set([
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
const SUFFICIENT_MODES = new Set(['auditory', 'tactile', 'textual', 'visual']);
const FEATURES = new Set([
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
const HAZARDS = new Set([
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

/** `EPUB Accessibility 1.1 - WCAG 2.1 Level AA` → Readium's profile URI for it. */
const EPUB_A11Y_11 = /^EPUB Accessibility 1\.1\s*-\s*WCAG\s*(2\.[012])\s*Level\s*(AAA|AA|A)$/i;

function conformanceUri(value: string): string | null {
  const profile = EPUB_A11Y_11.exec(value.trim());
  if (profile) return `https://www.w3.org/TR/epub-a11y-11#wcag-${profile[1]}-${profile[2]!.toLowerCase()}`;
  return /^https?:\/\/\S+$/.test(value.trim()) ? value.trim() : null;
}

/** Readium's `accessibility` object; undefined when nothing of it can be said. */
export function readiumAccessibility(facts: AccessibilityFacts | undefined): ReadiumAccessibility | undefined {
  if (!facts) return undefined;
  const conformsTo = [...new Set(facts.conformsTo.map(conformanceUri).filter((uri): uri is string => uri !== null))];
  const accessMode = facts.accessModes.filter((mode) => ACCESS_MODES.has(mode));
  // `textual,visual`: modes that suffice together are one entry, a list.
  const accessModeSufficient = facts.accessModesSufficient.flatMap((entry) => {
    const modes = entry.split(',').map((mode) => mode.trim());
    if (modes.length === 0 || !modes.every((mode) => SUFFICIENT_MODES.has(mode))) return [];
    return [modes.length === 1 ? modes[0]! : modes];
  });
  const feature = facts.features.filter((value) => FEATURES.has(value));
  const hazard = facts.hazards.filter((value) => HAZARDS.has(value));
  const accessibility: ReadiumAccessibility = {
    ...(conformsTo.length > 0 && { conformsTo }),
    ...(accessMode.length > 0 && { accessMode }),
    ...(accessModeSufficient.length > 0 && { accessModeSufficient }),
    ...(feature.length > 0 && { feature }),
    ...(hazard.length > 0 && { hazard }),
    ...(facts.summary && { summary: facts.summary }),
    ...(facts.certifiedBy && { certification: { certifiedBy: facts.certifiedBy } }),
  };
  return Object.keys(accessibility).length > 0 ? accessibility : undefined;
}
