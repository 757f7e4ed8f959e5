from django.contrib import admin

from clubsite.models import Member, OnlineName


class OnlineNameInline(admin.TabularInline):
    """The member's names on online services, by which imported games find them."""

    model = OnlineName
    extra = 1


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    inlines = [OnlineNameInline]
    list_display = ["display_name", "furigana", "user", "user__is_staff", "women_division"]
    list_filter = ["user__is_staff", "women_division"]
    list_select_related = ["user"]
    search_fields = ["display_name", "furigana", "user__username"]
    autocomplete_fields = ["user"]
