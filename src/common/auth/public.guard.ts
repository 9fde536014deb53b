import { CanActivate, Injectable } from '@nestjs/common';

/** `@Access('public')`: anyone; the global AuthGuard has identified the caller when credentials came along. */
@Injectable()
export class PublicGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}
