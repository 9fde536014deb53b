import { Global, Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AuthGuard } from './auth/auth.guard';
import { AuthRepository } from './auth/auth.repository';
import { CallerCache } from './auth/caller-cache';
import { GrantsCache } from './cache/grants-cache';
import { SecretBox } from './crypto/secret-box';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { EventBus } from './events/event-bus';
import { FormBodyGuard } from './http/accepts-form';
import { CrossSiteGuard } from './http/cross-site.guard';
import { AppLogger } from './logging/app-logger';
import { validationExceptionFactory } from './validation/validation-exception.factory';

/** Cross-cutting providers wired once: config, logger, secrets, the event bus, the global guard, pipe and filter. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, logger: AppLogger) {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: AppLogger, useValue: logger },
        { provide: SecretBox, useValue: new SecretBox(config.encryptionKey) },
        EventBus,
        AuthRepository,
        CallerCache,
        GrantsCache,
        { provide: APP_GUARD, useClass: AuthGuard },
        // After AuthGuard: form posts are refused except on routes marked @AcceptsForm().
        { provide: APP_GUARD, useClass: FormBodyGuard },
        // Then writes that another site makes with the visitor's cookie are refused (cross-site.guard.ts).
        { provide: APP_GUARD, useClass: CrossSiteGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            whitelist: true,
            forbidNonWhitelisted: false,
            transform: true,
            // One message per parameter: the rule nearest the property runs first (decorators apply bottom-up).
            stopAtFirstError: true,
            exceptionFactory: validationExceptionFactory,
          }),
        },
      ],
      exports: [APP_CONFIG, AppLogger, SecretBox, EventBus, AuthRepository, CallerCache, GrantsCache],
    };
  }
}
