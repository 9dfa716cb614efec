import { describe, expect, it } from 'vitest';
import { parseLegalText } from '../../src/rights/legal-text.ts';

describe('legal text parsing', () => {
  it("shows lines starting with 'N.' as headings and lines starting with '-' as bullets", () => {
    const text = [
      '1. Acesso',
      '- Os menores de 15 anos entram acompanhados.',
      '- Não são permitidos animais.',
      'Texto livre.',
    ].join('\n');
    expect(parseLegalText(text)).toEqual([
      { kind: 'heading', number: '1', text: 'Acesso' },
      { kind: 'list', items: ['Os menores de 15 anos entram acompanhados.', 'Não são permitidos animais.'] },
      { kind: 'paragraph', text: 'Texto livre.' },
    ]);
  });

  it("decodes '%40' back to '@'", () => {
    expect(parseLegalText('Contacto: geral%40cnpd.pt')).toEqual([
      { kind: 'paragraph', text: 'Contacto: geral@cnpd.pt' },
    ]);
  });

  it('starts a new list after a heading and ignores blank lines', () => {
    const blocks = parseLegalText('1. A\n- x\n\n2. B\n- y\n- z');
    expect(blocks.map((block) => block.kind)).toEqual(['heading', 'list', 'heading', 'list']);
    expect(blocks[3]).toEqual({ kind: 'list', items: ['y', 'z'] });
  });

  it('treats a number inside a sentence as text, not a heading', () => {
    expect(parseLegalText('15 anos é a idade mínima.')[0]?.kind).toBe('paragraph');
  });
});
