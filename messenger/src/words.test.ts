import { describe, expect, it } from 'vitest';
import { languageOf, wordsFor } from './words.js';

describe('the messenger’s words', () => {
  it('reads a language by its base, English for one it does not know', () => {
    expect(wordsFor('fr-CA').send).toBe('Envoyer');
    expect(wordsFor('DE').send).toBe('Senden');
    expect(wordsFor('es-419').screenOf(2, 5)).toBe('Pantalla 2 de 5');
    expect(wordsFor('ja').send).toBe('Send');
    expect(wordsFor(undefined).send).toBe('Send');
    expect(languageOf('fr-CA')).toBe('fr');
    expect(languageOf('ja')).toBe('en');
  });

  it('has every word in every language, the five ratings included', () => {
    const en = wordsFor('en');
    for (const language of ['de', 'fr', 'es']) {
      const other = wordsFor(language);
      expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
      expect(other.ratings).toHaveLength(5);
      expect(other.send).not.toBe(en.send);
    }
  });
});
