import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { IdParam } from '../../common/validation/pipes';
import { CreateRowPolicyDto, ListRowPoliciesQuery, UpdateRowPolicyDto } from './row-policies.dto';
import { RowPoliciesService } from './row-policies.service';

/** Row and column security policies (Metabase's sandboxes, under its old name GTAP). */
@Controller('api/mt/gtap')
export class RowPoliciesController {
  constructor(private readonly policies: RowPoliciesService) {}

  @Get()
  @Access('admin')
  list(@Query() q: ListRowPoliciesQuery) {
    return this.policies.list(q.group_id, q.table_id);
  }

  @Post('validate')
  @Access('admin')
  @HttpCode(204)
  async validate(@Body() body: CreateRowPolicyDto): Promise<void> {
    await this.policies.validate(body);
  }

  @Get(':id')
  @Access('admin')
  get(@Param('id', IdParam()) id: number) {
    return this.policies.get(id);
  }

  @Post()
  @Access('admin')
  @HttpCode(200)
  create(@Body() body: CreateRowPolicyDto) {
    return this.policies.create(body);
  }

  @Put(':id')
  @Access('admin')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateRowPolicyDto) {
    return this.policies.update(id, body);
  }

  @Delete(':id')
  @Access('admin')
  @HttpCode(204)
  async remove(@Param('id', IdParam()) id: number): Promise<void> {
    await this.policies.remove(id);
  }
}
