import { Body, Controller, Get, INestApplication, Module, Post, Query, SetMetadata } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { ACCESS_KEY } from '../../common/auth/access.decorator';
import { ACCESS_REFUSALS, ACCESS_SECURITY } from './access-levels';
import { ApiDocsService } from './api-docs.service';

/*
 * ApiDocsService over a two-controller app made here: the @Access level is set as bare metadata (not @Access, whose
 * guards would need the auth providers), which is all the document reads.
 */
class ListQuery {
  @IsOptional()
  @IsInt()
  @Min(1)
  limit?: number;
}

class CreateThing {
  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  position?: number;
}

@Controller('api/thing')
class ThingController {
  @Get()
  @SetMetadata(ACCESS_KEY, 'user')
  list(@Query() _q: ListQuery) {
    return [];
  }

  @Post()
  @SetMetadata(ACCESS_KEY, 'admin')
  create(@Body() _b: CreateThing) {
    return {};
  }
}

@Controller()
class RootController {
  @Get('health')
  @SetMetadata(ACCESS_KEY, 'public')
  health() {
    return 'ok';
  }

  @Get('undeclared')
  undeclared() {
    return 'x';
  }
}

@Module({ controllers: [ThingController, RootController] })
class DocsTestModule {}

type Op = {
  'x-access'?: string;
  tags?: string[];
  description?: string;
  security?: unknown;
  responses: Record<string, { description: string }>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Record<string, unknown> }>;
};

describe('ApiDocsService', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await NestFactory.create(DocsTestModule, { logger: false });
  });
  afterAll(() => app.close());

  function service() {
    const docs = new ApiDocsService(app.get(ModulesContainer));
    docs.attach(app);
    return docs;
  }
  const op = (doc: { paths: Record<string, unknown> }, path: string, method: string) => (doc.paths[path] as Record<string, Op>)[method];

  it('needs an app to document', async () => {
    await expect(new ApiDocsService(app.get(ModulesContainer)).document()).rejects.toThrow('no app attached');
  });

  it("gives each operation its access level: x-access, a description line, its credentials and its guard's refusals", async () => {
    const doc = await service().document();
    const list = op(doc, '/api/thing', 'get');
    expect(list['x-access']).toBe('user');
    expect(list.description).toBe('**Access: user** (any signed-in user or API key).');
    expect(list.security).toEqual(ACCESS_SECURITY.user);
    expect(list.responses['401']).toEqual({ description: ACCESS_REFUSALS.user['401'] });

    const create = op(doc, '/api/thing', 'post');
    expect(create['x-access']).toBe('admin');
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['401', '403']));

    const health = op(doc, '/health', 'get');
    expect(health).toMatchObject({ 'x-access': 'public', security: [] });
    // A route without a level is documented without one (the route test, not the docs, refuses it).
    expect(op(doc, '/undeclared', 'get')).not.toHaveProperty('x-access');
  });

  it('tags operations by resource and lists the tags sorted', async () => {
    const doc = await service().document();
    expect(op(doc, '/api/thing', 'post').tags).toEqual(['thing']);
    expect(op(doc, '/health', 'get').tags).toEqual(['health']);
    expect(doc.tags).toEqual([{ name: 'health' }, { name: 'thing' }, { name: 'undeclared' }]);
  });

  it('documents a whole-@Query DTO as query parameters and fills body DTO schemas from their validation rules', async () => {
    const doc = await service().document();
    const limit = op(doc, '/api/thing', 'get').parameters?.find((p) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1 } });
    expect(doc.components?.schemas?.CreateThing).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, position: { type: 'integer' } },
      required: ['name'],
    });
  });

  it('builds once, and again for a newly attached app', async () => {
    const docs = service();
    const first = await docs.document();
    expect(await docs.document()).toBe(first);
    docs.attach(app);
    const second = await docs.document();
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });
});
