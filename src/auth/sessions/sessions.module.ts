import { Module } from '@nestjs/common';
import { SessionController } from './session.controller.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';

/** Console sessions: sign-in, sign-out, and the look-up the access guard admits them with. */
@Module({
  controllers: [SessionController],
  providers: [SessionsService, SessionsRepository],
  exports: [SessionsService],
})
export class SessionsModule {}
