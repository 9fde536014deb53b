import { Controller, Get, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { SearchQuery } from './search.dto';
import { SearchService } from './search.service';

@Controller('api/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get()
  @Access('user')
  find(@Query() q: SearchQuery, @CurrentUser() caller: AuthUser) {
    return this.search.search(caller, q);
  }
}
