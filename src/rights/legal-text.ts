/** A legal text as displayed: numbered lines become headings, dash lines bullets, the rest paragraphs. */
export type LegalBlock =
  | { kind: 'heading'; number: string; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'paragraph'; text: string };

/** The catalogs store '@' as %40 (docs/decisions.md, 'Client'); it is decoded for display. */
function decodeLegalText(text: string): string {
  return text.replaceAll('%40', '@');
}

/** Splits a legal text into blocks: 'N.' lines are headings, '-' lines bullets (grouped into lists). */
export function parseLegalText(text: string): LegalBlock[] {
  const blocks: LegalBlock[] = [];
  for (const rawLine of decodeLegalText(text).split('\n')) {
    const line = rawLine.trim();
    if (line === '') continue;
    const heading = /^(\d+)\.\s*(.*)$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', number: heading[1] ?? '', text: heading[2] ?? '' });
      continue;
    }
    if (line.startsWith('-')) {
      const item = line.slice(1).trim();
      const last = blocks.at(-1);
      if (last?.kind === 'list') last.items.push(item);
      else blocks.push({ kind: 'list', items: [item] });
      continue;
    }
    blocks.push({ kind: 'paragraph', text: line });
  }
  return blocks;
}
