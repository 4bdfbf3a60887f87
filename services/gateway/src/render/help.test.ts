import { describe, expect, it } from 'vitest';
import { helpSubjectLabel, helpSubjectsToWire } from './help.js';

const missingIssues = { key: 'missing-issues', labels: { en: "I can't find my publications", es: 'No encuentro mis publicaciones' } };

describe('help subject labels', () => {
  it('when the subject has a label in the client language, then that one is shown', () => {
    expect(helpSubjectLabel(missingIssues, 'es')).toBe('No encuentro mis publicaciones');
  });

  it('when it has none in that language, then English is shown, and the key when English is missing too', () => {
    expect(helpSubjectLabel(missingIssues, 'it')).toBe("I can't find my publications");
    expect(helpSubjectLabel({ key: 'other', labels: { pt: 'Outro' } }, 'en')).toBe('other');
  });

  it('when the subjects are rendered, then they map key to label in the order given', () => {
    const wire = helpSubjectsToWire([missingIssues, { key: 'other', labels: { en: 'Other', pt: 'Outro' } }], 'pt');
    expect(wire).toEqual({ 'missing-issues': "I can't find my publications", other: 'Outro' });
    expect(Object.keys(wire)).toEqual(['missing-issues', 'other']);
  });
});
