import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { DiagnosticsService } from './diagnostics.service';
import { PasswordCheckDto, ProductFeedbackDto } from './util.dto';
import { UtilService } from './util.service';

@Controller('api/util')
export class UtilController {
  constructor(
    private readonly util: UtilService,
    private readonly diagnostics: DiagnosticsService,
  ) {}

  @Get('random_token')
  @Access('user')
  randomToken() {
    return this.util.randomToken();
  }

  /** Public, as in Metabase: the signup and password-reset forms check a password before anyone is logged in. */
  @Post('password_check')
  @Access('public')
  @HttpCode(200)
  passwordCheck(@Body() body: PasswordCheckDto) {
    return this.util.checkPassword(body.password);
  }

  @Post('product-feedback')
  @Access('user')
  @HttpCode(204)
  async productFeedback(@Body() body: ProductFeedbackDto, @CurrentUser() user: AuthUser) {
    await this.util.saveFeedback(body, user);
  }

  @Get('stats')
  @Access('admin')
  stats() {
    return this.util.stats();
  }

  @Get('bug_report_details')
  @Access('admin')
  bugReportDetails() {
    return this.diagnostics.bugReportDetails();
  }

  @Get('diagnostic_info/connection_pool_info')
  @Access('admin')
  connectionPoolInfo() {
    return this.diagnostics.connectionPools();
  }

  @Get('logs')
  @Access('admin')
  logs() {
    return this.diagnostics.logs();
  }
}
