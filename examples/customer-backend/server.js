'use strict';
const { createCustomerBackend } = require('./app');

const required = (name) => {
  const value = process.env[name];
  if (!value) {
    console.error(`Set ${name} (see README.md).`);
    process.exit(1);
  }
  return value;
};

const app = createCustomerBackend({
  analyticsUrl: required('ANALYTICS_URL'),
  jwtSharedSecret: required('JWT_SHARED_SECRET'),
  frontendOrigin: process.env.FRONTEND_ORIGIN || undefined,
});
const port = Number(process.env.PORT || 9090);
app.listen(port, () => console.log(`customer backend on http://localhost:${port}; JWT identity provider: http://localhost:${port}/sso/analytics`));
