import { config } from '@petstore/eslint-config';

export default config;
