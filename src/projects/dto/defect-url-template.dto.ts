import { ApiProperty } from '@nestjs/swagger';
import { DEFECT_URL_TEMPLATE_RULE, IsDefectUrlTemplateOrNull } from '../defect-links.js';

/** Where the project's defects live; null: defect ids are shown as text. */
export class SetDefectUrlTemplateDto {
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 2048,
    description: `${DEFECT_URL_TEMPLATE_RULE}: a result's defect id replaces {id} to link it`,
    example: 'https://jira.example.com/browse/{id}',
  })
  @IsDefectUrlTemplateOrNull()
  defect_url_template!: string | null;
}
