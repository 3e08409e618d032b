import { Module } from '@nestjs/common';
import { ResultWriter } from './result-writer.js';

@Module({ providers: [ResultWriter], exports: [ResultWriter] })
export class ResultWriterModule {}
