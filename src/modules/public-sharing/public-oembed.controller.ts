import { Controller, Get, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { PublicLinksRepository } from './public-links.repository';
import { nonBlank } from './shared-request';

/** Metabase's defaults when the consumer sets no bound. */
const DEFAULT_MAX_WIDTH = 1024;
const DEFAULT_MAX_HEIGHT = 800;

/** The page of a public link: `/public/question/<uuid>` or `/public/dashboard/<uuid>` (a hash with options allowed). */
const PUBLIC_PAGE = /^\/public\/(question|dashboard)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * GET /api/public/oembed: the oEmbed answer (https://oembed.com, "rich" type) for the page of a public link: an
 * iframe of it sized to the consumer's `maxwidth` and `maxheight`. Only http(s) URLs of public link pages, and only
 * links that exist, so it never frames anything else.
 */
@Controller('api/public')
export class PublicOembedController {
  constructor(private readonly links: PublicLinksRepository) {}

  @Get('oembed')
  @Access('public-sharing')
  async oembed(@Query('url') url: unknown, @Query('format') format: unknown, @Query('maxwidth') maxwidth: unknown, @Query('maxheight') maxheight: unknown) {
    const page = publicPage(nonBlank('url', url));
    if (format !== undefined && format !== 'json') throw ValidationError.of('format', MSG.oneOf(['json']), format);
    const width = bound('maxwidth', maxwidth) ?? DEFAULT_MAX_WIDTH;
    const height = bound('maxheight', maxheight) ?? DEFAULT_MAX_HEIGHT;
    if ((await this.links.idByUuid(page.model, page.uuid)) === null) throw new NotFoundError();
    return { version: '1.0', type: 'rich', width, height, html: iframe(page.url, width, height) };
  }
}

function publicPage(raw: string): { url: string; model: 'card' | 'dashboard'; uuid: string } {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw ValidationError.of('url', 'value must be the URL of a public link.', raw);
  }
  const m = PUBLIC_PAGE.exec(parsed.pathname);
  if (!['http:', 'https:'].includes(parsed.protocol) || !m || parsed.username || parsed.password) {
    throw ValidationError.of('url', 'value must be the URL of a public link.', raw);
  }
  return { url: parsed.href, model: m[1] === 'question' ? 'card' : 'dashboard', uuid: m[2].toLowerCase() };
}

/** `integer` query parameters: a positive pixel count. */
function bound(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[1-9]\d{0,5}$/.test(v)) throw ValidationError.of(name, MSG.integer, v);
  return Number(v);
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function iframe(url: string, width: number, height: number): string {
  return `<iframe src="${escapeAttr(url)}" width="${width}" height="${height}" frameborder="0" allowtransparency></iframe>`;
}
