import { Module } from '@nestjs/common';
import { OperatorTokenCheck } from './operator-token-check.js';
import { SessionController } from './session.controller.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';

/**
 * Console sessions: sign-in, sign-out, and the look-up the access guard admits them with; and
 * the operator token's check, one throttle for every door it is sent through.
 */
@Module({
  controllers: [SessionController],
  providers: [SessionsService, SessionsRepository, OperatorTokenCheck],
  exports: [SessionsService, OperatorTokenCheck],
})
export class SessionsModule {}
