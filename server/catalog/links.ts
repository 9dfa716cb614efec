import { AppError, type FieldProblem } from '../kernel/errors.ts';
import { translate, type Message } from '../kernel/i18n.ts';

// The links a branch publishes (its map, embedded in a frame, and its images) reach every visitor's browser, so
// only what a browser fetches as a page or a picture is taken: an absolute `https:` URL, plain `http:` outside
// production (a developer's local server), or a path on this site (`/images/...`, the demo's). `javascript:`,
// `data:`, `vbscript:`, `file:` and the rest, protocol-relative `//host` links and links with credentials are
// refused (docs/decisions.md, "Input is refused with the contract's errors").

const notALink: Message = /*i18n*/ {
  id: 'links.notALink',
  message: '«{field}» tem de ser um endereço https ou um caminho deste site',
};

/** Spaces and control characters: the URL parser (and a browser) forgives them; a link here carries none. */
function hasSpaceOrControl(value: string): boolean {
  return [...value].some((character) => {
    const code = character.codePointAt(0)!;
    return code <= 0x20 || code === 0x7f || /\s/.test(character);
  });
}

/** Whether a browser may be pointed at this link from the branch's public page. */
export function isPublishableLink(value: string, options: { allowPlainHttp: boolean }): boolean {
  if (hasSpaceOrControl(value)) return false;
  // A path on this site: one leading slash (two would name another host) and no backslash (read as a slash).
  if (value.startsWith('/')) return !value.startsWith('//') && !value.includes('\\');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const schemes = options.allowPlainHttp ? ['https:', 'http:'] : ['https:'];
  return schemes.includes(url.protocol) && url.hostname !== '' && !url.username && !url.password;
}

/**
 * Refuses a branch's map link or images that may not be published: 422 `validation_failed` naming each such
 * field (`map_url`, `images[1]`) as the contract's field problems do.
 */
export function checkBranchLinks(
  links: {
    mapUrl?: string | null;
    images?: readonly string[];
    arrival?: { entrance_photo_url?: string | null } | undefined;
  },
  options: { allowPlainHttp: boolean },
): void {
  const refused: string[] = [];
  if (typeof links.mapUrl === 'string' && !isPublishableLink(links.mapUrl, options)) refused.push('map_url');
  const photo = links.arrival?.entrance_photo_url;
  if (typeof photo === 'string' && photo.trim() !== '' && !isPublishableLink(photo.trim(), options))
    refused.push('arrival.entrance_photo_url');
  links.images?.forEach((image, index) => {
    if (!isPublishableLink(image, options)) refused.push(`images[${index}]`);
  });
  if (refused.length === 0) return;
  const fields: FieldProblem[] = refused.map((field) => ({ field, problem: 'format' }));
  throw new AppError(
    'validation_failed',
    { problems: (locale) => refused.map((field) => translate(locale, notALink, { field })).join('; ') },
    { fields },
  );
}
