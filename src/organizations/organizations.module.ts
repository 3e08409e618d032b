import { Module } from '@nestjs/common';
import { QuotaModule } from '../limits/quota.module.js';
import { OrganizationsInternalController } from './organizations.internal.controller.js';
import { OrganizationsController } from './organizations.controller.js';
import { OrganizationsRepository } from './organizations.repository.js';
import { OrganizationsService } from './organizations.service.js';

@Module({
  imports: [QuotaModule],
  controllers: [OrganizationsController, OrganizationsInternalController],
  providers: [OrganizationsService, OrganizationsRepository],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}
