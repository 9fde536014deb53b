import { Controller, Get } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { pulseChannels } from './pulse-channels';

/** /api/pulse: what clients ask before offering subscriptions (the subscriptions themselves are not served). */
@Controller('api/pulse')
export class PulseController {
  /** The channels and whether each is set up; any signed-in user may ask, as in Metabase. */
  @Get('form_input')
  @Access('user')
  formInput() {
    return { channels: pulseChannels() };
  }
}
