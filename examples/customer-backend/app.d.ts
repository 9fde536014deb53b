import type { Express } from 'express';

export interface CustomerUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  groups: string[];
}

export interface CustomerBackendOptions {
  analyticsUrl: string;
  jwtSharedSecret: string;
  frontendOrigin?: string;
  users?: CustomerUser[];
}

export function createCustomerBackend(options: CustomerBackendOptions): Express;
export const DEMO_USERS: CustomerUser[];
export const SESSION_COOKIE: string;
