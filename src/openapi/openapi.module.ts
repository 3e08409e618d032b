import { Module } from '@nestjs/common';
import { OpenApiDocument } from './openapi-document.provider.js';
import { OpenApiController } from './openapi.controller.js';

@Module({
  controllers: [OpenApiController],
  providers: [OpenApiDocument],
  exports: [OpenApiDocument],
})
export class OpenApiModule {}
