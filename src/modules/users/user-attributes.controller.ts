import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { IdParam } from '../../common/validation/pipes';
import { SetLoginAttributesDto } from './users.dto';
import { UserAttributesService } from './user-attributes.service';

/** Metabase's sandboxing helpers for user attributes (`/api/mt/user`), for admins. */
@Controller('api/mt/user')
export class UserAttributesController {
  constructor(private readonly attributes: UserAttributesService) {}

  @Get('attributes')
  @Access('admin')
  keys() {
    return this.attributes.knownKeys();
  }

  @Put(':id/attributes')
  @Access('admin')
  set(@Param('id', IdParam()) id: number, @Body() body: SetLoginAttributesDto) {
    return this.attributes.setLoginAttributes(id, body.login_attributes ?? null);
  }
}
