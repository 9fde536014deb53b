import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { SettingsService } from '../settings';
import { publicPage, siteBase } from './oembed-page';
import { PublicLinksRepository } from './public-links.repository';
import { nonBlank } from './shared-request';

/** Metabase's defaults when the consumer sets no bound. */
const DEFAULT_MAX_WIDTH = 1024;
const DEFAULT_MAX_HEIGHT = 800;

/**
 * GET /api/public/oembed: the oEmbed answer (https://oembed.com, "rich" type) for the page of a public link: an
 * iframe of it sized to the consumer's `maxwidth` and `maxheight`. Only pages of public links that exist on this
 * site (`site-url`, else the request's own origin), so it never frames anything else. (Metabase frames any URL.)
 */
@Controller('api/public')
export class PublicOembedController {
  constructor(
    private readonly links: PublicLinksRepository,
    private readonly settings: SettingsService,
  ) {}

  @Get('oembed')
  @Access('public-sharing')
  async oembed(
    @Req() req: Request,
    @Query('url') url: unknown,
    @Query('format') format: unknown,
    @Query('maxwidth') maxwidth: unknown,
    @Query('maxheight') maxheight: unknown,
  ) {
    const site = siteBase(await this.settings.get<string | null>('site-url'), `${req.protocol}://${req.host ?? ''}`);
    const page = publicPage(nonBlank('url', url), site);
    if (format !== undefined && format !== 'json') throw ValidationError.of('format', MSG.oneOf(['json']), format);
    const width = bound('maxwidth', maxwidth) ?? DEFAULT_MAX_WIDTH;
    const height = bound('maxheight', maxheight) ?? DEFAULT_MAX_HEIGHT;
    if ((await this.links.idByUuid(page.model, page.uuid)) === null) throw new NotFoundError();
    return { version: '1.0', type: 'rich', width, height, html: iframe(page.url, width, height) };
  }
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
