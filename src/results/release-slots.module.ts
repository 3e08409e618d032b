import { Module } from '@nestjs/common';
import { ReleaseSlots } from './release-slots.js';
import { ReleaseSlotsRepository } from './release-slots.repository.js';

/**
 * Each release's slots by their latest result (`release_slot`), as the writers of results and
 * retention keep it; needs only the database.
 */
@Module({
  providers: [ReleaseSlots, ReleaseSlotsRepository],
  exports: [ReleaseSlots],
})
export class ReleaseSlotsModule {}
