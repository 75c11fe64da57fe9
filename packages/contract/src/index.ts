export {
  ErrorCodeSchema,
  ErrorDetailSchema,
  ErrorSchema,
  errorStatus,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
} from './errors.js';
